package io.squall.api.config;

import io.squall.core.provider.CapacityType;
import io.squall.providers.aws.AwsSettings;
import io.squall.providers.gcp.GcpSettings;
import io.squall.providers.gcp.MachinePrice;
import io.squall.providers.local.LocalProvider;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.EnumMap;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;

/**
 * What the configured provider ({@code squall.provider}) sells each instance type for, per
 * capacity type, as far as its configuration alone tells: its list prices in US dollars per
 * node-hour, known at start-up without calling any cloud. These are the prices the provider
 * offers at run time too: AWS on-demand (its built-in table under {@code squall.aws.on-demand-prices}),
 * GCE on-demand and spot (its built-in list under {@code squall.gcp.on-demand-prices} and
 * {@code spot-prices}), and the local provider's {@code squall.local.on-demand-price} and
 * {@code spot-price}.
 *
 * <p>Not known here: AWS spot (EC2 has no spot list price; the provider reads the spot price
 * history, a market), a type a table does not list or lists at 0 (the provider offers it at 0,
 * unknown), and everything with provider {@code none}. A configured price that is not a finite
 * number of dollars, 0 or more, is not known either: {@code Providers} refuses it at start-up,
 * naming its key.
 */
@Singleton
public final class ListPrices {
  /** No price known: no provider, or none of its prices listed. */
  public static final ListPrices NONE = new ListPrices(new EnumMap<>(CapacityType.class));

  private final Map<CapacityType, Map<String, Double>> usdPerNodeHour;

  /** The list prices of the provider {@code config} names, read from its settings. */
  @Inject
  public ListPrices(SquallConfig config, LocalProviderConfig local, AwsProviderConfig aws, GcpProviderConfig gcp) {
    this(read(config.getProvider(), local, aws, gcp));
  }

  private ListPrices(Map<CapacityType, Map<String, Double>> usdPerNodeHour) {
    this.usdPerNodeHour = usdPerNodeHour;
  }

  /** The list price of {@code instanceType} bought as {@code type}, US dollars per node-hour; empty when not known. */
  public OptionalDouble usdPerNodeHour(String instanceType, CapacityType type) {
    Double usd = usdPerNodeHour.getOrDefault(type, Map.of()).get(instanceType);
    return usd == null ? OptionalDouble.empty() : OptionalDouble.of(usd);
  }

  private static Map<CapacityType, Map<String, Double>> read(String provider, LocalProviderConfig local,
      AwsProviderConfig aws, GcpProviderConfig gcp) {
    Map<CapacityType, Map<String, Double>> out = new EnumMap<>(CapacityType.class);
    Map<String, Double> onDemand = new TreeMap<>();
    Map<String, Double> spot = new TreeMap<>();
    switch (provider) {
      case "aws" -> {
        // Configured prices go over the built-in table, as AwsSettings.Builder puts them.
        onDemand.putAll(AwsSettings.DEFAULT_ON_DEMAND_PRICES);
        aws.getOnDemandPrices().forEach((t, usd) -> listed(onDemand, t, usd));
      }
      case "gcp" -> {
        // Each configured price goes over the built-in list's, as GcpSettings.Builder puts them.
        GcpSettings.DEFAULT_PRICES.forEach((t, price) -> {
          listed(onDemand, t, price.onDemand());
          listed(spot, t, price.spot());
        });
        gcp.getOnDemandPrices().forEach((t, usd) -> listed(onDemand, t, usd));
        gcp.getSpotPrices().forEach((t, usd) -> listed(spot, t, usd));
      }
      case "local" -> {
        // The local provider's 0 is a price (free by default), not an unknown one.
        if (valid(local.getOnDemandPrice())) {
          onDemand.put(LocalProvider.INSTANCE_TYPE, local.getOnDemandPrice());
        }
        if (local.getSpotPrice() != null && valid(local.getSpotPrice())) {
          spot.put(LocalProvider.INSTANCE_TYPE, local.getSpotPrice());
        }
      }
      default -> {
        // none (nodes started elsewhere) sells nothing; an unknown name is refused by Providers.
      }
    }
    out.put(CapacityType.ON_DEMAND, Map.copyOf(onDemand));
    out.put(CapacityType.SPOT, Map.copyOf(spot));
    return out;
  }

  /**
   * Sets a cloud table's price of {@code type}: the cloud providers offer a type they list at 0
   * at 0, which means unknown ({@link MachinePrice}, {@link AwsSettings#onDemandPrice}), so a 0
   * takes an earlier price away rather than making the type free.
   */
  private static void listed(Map<String, Double> prices, String type, Double usd) {
    if (usd != null && usd > 0 && valid(usd)) {
      prices.put(type, usd);
    } else {
      prices.remove(type);
    }
  }

  private static boolean valid(double usd) {
    return usd >= 0 && !Double.isInfinite(usd);
  }
}
