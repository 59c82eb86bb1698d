package io.squall.api.fleet;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.QueryValue;
import io.squall.api.store.PriceRepository;
import io.squall.api.store.PriceRow;
import io.squall.api.web.TextRules;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code /v1/prices}: the prices in force per offering over time, as the elastic fleet learnt them. */
@Controller("/v1")
@Tag(name = "cluster")
public final class PriceController {
  private final PriceRepository prices;

  public PriceController(PriceRepository prices) {
    this.prices = prices;
  }

  @Operation(summary = "Each offering's prices in US dollars per node-hour, oldest first: from, and to (null while in force); ?offering=TYPE/ZONE/CAPACITY for one")
  @Get("/prices{?offering}")
  public Map<String, Object> prices(@Nullable @QueryValue String offering) {
    TextRules.plain("offering", offering, 255); // a NUL would reach the database's query
    List<Map<String, Object>> out = new ArrayList<>();
    for (PriceRow r : offering == null ? prices.findAllOrderByOfferingAscAndValidFromAsc()
        : prices.findByOfferingOrderByValidFromAsc(offering)) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("offering", r.offering());
      m.put("usd_per_hour", r.usdPerHour());
      m.put("from", r.validFrom().toString());
      m.put("to", r.validTo() == null ? null : r.validTo().toString());
      out.add(m);
    }
    return Map.of("prices", out);
  }
}
