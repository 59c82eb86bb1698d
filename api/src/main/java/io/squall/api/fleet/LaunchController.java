package io.squall.api.fleet;

import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.squall.api.store.InstanceRepository;
import io.squall.api.store.InstanceRow;
import io.squall.api.store.LaunchIntentRepository;
import io.squall.api.store.LaunchIntentRow;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code /v1/launches} and {@code /v1/instances}: what the elastic fleet asked its provider for, and what it got. */
@Controller("/v1")
@Tag(name = "cluster")
public final class LaunchController {
  private final LaunchIntentRepository intents;
  private final InstanceRepository instances;

  public LaunchController(LaunchIntentRepository intents, InstanceRepository instances) {
    this.intents = intents;
    this.instances = instances;
  }

  @Operation(summary = "Launch calls, oldest first: nodes, offering, placement group, outcome (PENDING, LAUNCHED, FAILED, DROPPED)")
  @Get("/launches")
  public Map<String, Object> launches() {
    List<Map<String, Object>> out = new ArrayList<>();
    for (LaunchIntentRow r : intents.findAllOrderByCreated()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("token", r.token());
      m.put("partition", r.partitionName());
      m.put("nodes", r.nodes());
      m.put("offering", r.offering());
      m.put("placement_group", r.placementGroup());
      m.put("state", r.state());
      m.put("detail", r.detail());
      m.put("created", r.created().toString());
      m.put("updated", r.updated().toString());
      out.add(m);
    }
    return Map.of("launches", out);
  }

  @Operation(summary = "The instances the elastic nodes run on, with their network nodes (root first) once the provider has told them")
  @Get("/instances")
  public Map<String, Object> instances() {
    List<Map<String, Object>> out = new ArrayList<>();
    for (InstanceRow r : instances.findAll()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("node", r.nodeName());
      m.put("instance_id", r.instanceId());
      m.put("launch", r.launchToken());
      m.put("instance_type", r.instanceType());
      m.put("zone", r.zone());
      m.put("capacity_type", r.capacityType());
      m.put("price_per_hour", r.pricePerHour());
      m.put("network_nodes", r.networkPath());
      out.add(m);
    }
    out.sort((a, b) -> ((String) a.get("node")).compareTo((String) b.get("node")));
    return Map.of("instances", out);
  }
}
