package io.squall.spot.metadata;

import io.squall.core.spot.Interruption;
import io.squall.core.spot.Interruption.Kind;
import io.squall.core.spot.Interruption.Source;
import io.squall.core.spot.InterruptionSource;
import java.lang.System.Logger;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Watches the GCE metadata server of the node it runs on for preemption and for host maintenance
 * that will terminate the VM.
 *
 * <p>Protocol: every request carries {@code Metadata-Flavor: Google} (the server refuses one
 * without it with 403). {@code /computeMetadata/v1/instance/preempted} answers {@code FALSE}, and
 * {@code TRUE} once Compute Engine has begun to preempt a Spot or preemptible VM, which then has
 * 30 seconds before it is stopped ("Create and use preemptible VMs",
 * https://cloud.google.com/compute/docs/instances/create-use-preemptible, and the Spot VMs page:
 * preemption notice of 30 seconds). {@code /computeMetadata/v1/instance/maintenance-event}
 * answers {@code NONE}, and 60 seconds before host maintenance {@code MIGRATE_ON_HOST_MAINTENANCE}
 * or {@code TERMINATE_ON_HOST_MAINTENANCE} ("Query metadata server for maintenance event
 * notices", https://cloud.google.com/compute/docs/metadata/getting-live-migration-notice; GPU VMs
 * cannot live-migrate, so for Squall's nodes it is usually the latter). A live migration keeps
 * the VM and is ignored. Polling the key is also what earns the warning: the same page says
 * Compute Engine skips it for a VM that has not read the key since the last event.
 *
 * <p>Both keys read as one {@link Kind#TERMINATION}, reported once while either stands (see
 * {@link ReportedKinds}); when both stand, the preemption's nearer deadline is the one reported.
 * Not thread-safe (the SPI's one-thread contract).
 */
public final class GceMetadataSource implements InterruptionSource {
  /** The metadata server's name on every GCE VM. */
  public static final URI DEFAULT_BASE = URI.create("http://metadata.google.internal");

  static final String FLAVOR_HEADER = "Metadata-Flavor";
  static final String FLAVOR = "Google";
  static final String ID_PATH = "/computeMetadata/v1/instance/id";
  static final String PREEMPTED_PATH = "/computeMetadata/v1/instance/preempted";
  static final String MAINTENANCE_PATH = "/computeMetadata/v1/instance/maintenance-event";

  /** GCE's preemption notice: the VM gets ACPI soft-off, then is stopped 30 s later. */
  static final Duration PREEMPTION_NOTICE = Duration.ofSeconds(30);
  /**
   * The maintenance-event key changes 60 s before the maintenance starts (documented for live
   * migration; that a terminating VM gets the same 60 s is a guess).
   */
  static final Duration MAINTENANCE_NOTICE = Duration.ofSeconds(60);

  private static final Logger LOG = System.getLogger(GceMetadataSource.class.getName());
  private static final Map<String, String> FLAVORED = Map.of(FLAVOR_HEADER, FLAVOR);

  private final String node;
  private final InstantSource clock;
  private final MetadataHttp http;
  private final ReportedKinds reported = new ReportedKinds();
  private final UnreadableNotices unreadable = new UnreadableNotices(LOG);
  private String instanceId;
  private boolean closed;

  /**
   * @param node the Squall node this machine is, named in every notice
   * @param base the metadata server, {@link #DEFAULT_BASE} on GCE
   * @param clock when notices are noticed (GCE gives no times: deadlines count from here)
   */
  public GceMetadataSource(String node, URI base, InstantSource clock) {
    this.node = Objects.requireNonNull(node, "node");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.http = new MetadataHttp(Objects.requireNonNull(base, "base"));
  }

  @Override
  public String name() {
    return "gce-metadata";
  }

  /**
   * Reads both keys. The instance id is read on the first poll that reaches the server.
   *
   * @throws java.io.UncheckedIOException when the server cannot be reached or answers other than
   *     200 or 404; nothing is remembered from a poll that throws
   * @throws IllegalStateException after {@link #close}
   */
  @Override
  public List<Interruption> poll() {
    if (closed) {
      throw new IllegalStateException(name() + " is closed");
    }
    if (instanceId == null) {
      MetadataHttp.Answer id = read(ID_PATH);
      if (!id.ok() || id.body().isBlank()) {
        throw http.failure(ID_PATH, id);
      }
      instanceId = id.body().strip();
    }
    MetadataHttp.Answer preempted = read(PREEMPTED_PATH);
    MetadataHttp.Answer maintenance = read(MAINTENANCE_PATH);
    Instant now = clock.instant();
    List<Interruption> found = new ArrayList<>();
    reported.apply(Kind.TERMINATION, either(preemption(preempted, now), maintenance(maintenance, now)), found);
    return found;
  }

  @Override
  public void close() {
    closed = true;
  }

  private Reading preemption(MetadataHttp.Answer answer, Instant now) {
    String value = answer.absent() ? "FALSE" : answer.body().strip();
    if (value.equalsIgnoreCase("FALSE")) {
      return Reading.QUIET;
    }
    if (value.equalsIgnoreCase("TRUE")) {
      return notice(now, PREEMPTION_NOTICE, "GCE instance/preempted: TRUE");
    }
    unreadable.skip(PREEMPTED_PATH, answer.body(), "expected TRUE or FALSE");
    return Reading.UNREADABLE;
  }

  private Reading maintenance(MetadataHttp.Answer answer, Instant now) {
    String value = answer.absent() ? "NONE" : answer.body().strip();
    switch (value) {
      case "NONE":
      case "MIGRATE_ON_HOST_MAINTENANCE":
        return Reading.QUIET;
      case "TERMINATE_ON_HOST_MAINTENANCE":
        return notice(now, MAINTENANCE_NOTICE, "GCE maintenance-event: TERMINATE_ON_HOST_MAINTENANCE");
      default:
        unreadable.skip(MAINTENANCE_PATH, answer.body(),
            "expected NONE, MIGRATE_ON_HOST_MAINTENANCE or TERMINATE_ON_HOST_MAINTENANCE");
        return Reading.UNREADABLE;
    }
  }

  /** A notice if either key shows one (the nearer deadline); quiet only if both are quiet. */
  private static Reading either(Reading preemption, Reading maintenance) {
    if (preemption instanceof Reading.Notice p && maintenance instanceof Reading.Notice m) {
      return p.interruption().deadline().isAfter(m.interruption().deadline()) ? m : p;
    }
    if (preemption instanceof Reading.Notice || maintenance instanceof Reading.Quiet) {
      return preemption;
    }
    return maintenance;
  }

  private Reading notice(Instant now, Duration notice, String detail) {
    return new Reading.Notice(new Interruption(node, instanceId, Source.GCE_METADATA, Kind.TERMINATION, now,
        now.plus(notice), detail));
  }

  private MetadataHttp.Answer read(String path) {
    MetadataHttp.Answer answer = http.get(path, FLAVORED);
    if (!answer.ok() && !answer.absent()) {
      throw http.failure(path, answer);
    }
    return answer;
  }
}
