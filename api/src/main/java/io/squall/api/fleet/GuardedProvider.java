package io.squall.api.fleet;

import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.RequestNotPermitted;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.squall.core.provider.Instance;
import io.squall.core.provider.LaunchRequest;
import io.squall.core.provider.NodeProvider;
import io.squall.core.provider.Offering;
import io.squall.core.provider.ProviderException;
import io.squall.core.provider.SpotPrice;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One call policy for every provider (Resilience4j, used programmatically): a rate limiter so the
 * controller never floods the API, a circuit breaker per provider and region that stops calling a
 * provider that keeps failing for its own reasons, and retries with exponential backoff and
 * jitter for throttling and transient errors only. Capacity, quota and price errors are not
 * retried here: the power planner answers them with another offering.
 */
public final class GuardedProvider implements NodeProvider {
  private final NodeProvider provider;
  private final Retry retry;
  private final CircuitBreaker breaker;
  private final RateLimiter limiter;

  /**
   * @param region what the breaker is for besides the provider ({@code us-east-1}), so one
   *     region's outage does not stop another's calls
   */
  public GuardedProvider(NodeProvider provider, String region, Settings settings) {
    this.provider = provider;
    String name = provider.name() + "-" + region;
    this.retry = Retry.of(name, RetryConfig.custom()
        .maxAttempts(settings.maxAttempts())
        .intervalFunction(IntervalFunction.ofExponentialRandomBackoff(settings.firstBackoff(), 2.0, 0.5))
        .retryOnException(e -> e instanceof ProviderException p && p.kind().retryable())
        .build());
    this.breaker = CircuitBreaker.of(name, CircuitBreakerConfig.custom()
        .failureRateThreshold(50)
        .minimumNumberOfCalls(settings.breakerMinimumCalls())
        .slidingWindowSize(Math.max(settings.breakerMinimumCalls(), 10))
        .waitDurationInOpenState(settings.breakerOpenFor())
        // The provider's own trouble counts; "no capacity" or "quota" is an answer, not an outage.
        .recordException(e -> e instanceof ProviderException p && (p.kind().retryable()
            || p.kind() == ProviderException.Kind.UNAUTHORIZED))
        .build());
    this.limiter = RateLimiter.of(name, RateLimiterConfig.custom()
        .limitForPeriod(settings.callsPerSecond())
        .limitRefreshPeriod(Duration.ofSeconds(1))
        .timeoutDuration(Duration.ofSeconds(30))
        .build());
  }

  /**
   * @param maxAttempts calls per operation, the first included
   * @param firstBackoff the wait before the first retry; doubled each time, with ±50 % jitter
   * @param breakerMinimumCalls calls seen before the breaker may open
   * @param breakerOpenFor how long an open breaker refuses calls
   * @param callsPerSecond the rate limit
   */
  public record Settings(int maxAttempts, Duration firstBackoff, int breakerMinimumCalls, Duration breakerOpenFor,
      int callsPerSecond) {
    public static Settings defaults() {
      return new Settings(4, Duration.ofMillis(500), 10, Duration.ofSeconds(60), 20);
    }
  }

  private <T> T call(String what, Supplier<T> call) {
    Supplier<T> guarded = Retry.decorateSupplier(retry,
        CircuitBreaker.decorateSupplier(breaker, RateLimiter.decorateSupplier(limiter, call)));
    try {
      return guarded.get();
    } catch (CallNotPermittedException e) {
      throw new ProviderException(ProviderException.Kind.TRANSIENT, provider.name() + " " + what
          + ": not called, the provider failed too often (circuit open for " + breaker.getName() + ")", e);
    } catch (RequestNotPermitted e) {
      throw new ProviderException(ProviderException.Kind.THROTTLED, provider.name() + " " + what
          + ": not called, the controller's own rate limit is exhausted", e);
    }
  }

  @Override
  public String name() {
    return provider.name();
  }

  @Override
  public List<Offering> offerings(List<String> instanceTypes) {
    return call("offerings", () -> provider.offerings(instanceTypes));
  }

  /** Retried with the same request, hence the same idempotency token: a retry never launches twice. */
  @Override
  public List<Instance> launch(LaunchRequest request) {
    return call("launch", () -> provider.launch(request));
  }

  @Override
  public void terminate(Instance instance) {
    call("terminate", () -> {
      provider.terminate(instance);
      return null;
    });
  }

  @Override
  public List<Instance> list(String cluster) {
    return call("list", () -> provider.list(cluster));
  }

  @Override
  public List<SpotPrice> spotPrices(List<String> instanceTypes) {
    return call("spot prices", () -> provider.spotPrices(instanceTypes));
  }

  @Override
  public Map<String, List<String>> networkNodes(Collection<String> instanceIds) {
    return call("network layout", () -> provider.networkNodes(instanceIds));
  }

  /**
   * The provider's own figure, asked directly: it is answered from what the provider holds, not
   * from the cloud, so there is nothing to limit or retry, and an open breaker must not turn a
   * published rate into the default 0.
   */
  @Override
  public double interruptionsPerNodeHour(Offering offering) {
    return provider.interruptionsPerNodeHour(offering);
  }

  @Override
  public void close() {
    provider.close();
  }
}
