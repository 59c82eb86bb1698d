package io.squall.api.spot;

import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Requires;
import io.squall.api.config.AwsProviderConfig;
import io.squall.api.config.SquallConfig;
import io.squall.api.simulate.ServiceConfig;
import io.squall.core.spot.Interruption;
import io.squall.core.spot.InterruptionSource;
import io.squall.providers.aws.SqsInterruptionSource;
import jakarta.annotation.PreDestroy;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller-side interruption sources, each polled on its own daemon thread into the
 * {@link InterruptionResponder}: with {@code squall.provider: aws} and
 * {@code squall.aws.interruption-queue-url}, the EC2 events EventBridge puts on that SQS queue.
 * (Node-side sources are the agents' metadata watchers; they report through the agent API.)
 * A source that cannot be reached is retried every {@link #RETRY_AFTER}.
 */
@Context
@Requires(notEnv = ServiceConfig.ENVIRONMENT) // squall simulate reads the configuration only
public final class InterruptionFeeds {
  private static final Logger LOG = LoggerFactory.getLogger(InterruptionFeeds.class);
  static final Duration RETRY_AFTER = Duration.ofSeconds(5);

  private final List<InterruptionSource> sources = new ArrayList<>();
  private final List<Thread> threads = new ArrayList<>();
  private volatile boolean running = true;

  public InterruptionFeeds(SquallConfig config, AwsProviderConfig aws, InterruptionResponder responder) {
    if ("aws".equals(config.getProvider()) && aws.getInterruptionQueueUrl() != null) {
      sources.add(SqsInterruptionSource.withDefaultCredentials(aws.getInterruptionQueueUrl(), aws.getRegion(),
          aws.getSqsEndpoint() == null ? null : URI.create(aws.getSqsEndpoint())));
    }
    for (InterruptionSource source : sources) {
      Thread t = new Thread(() -> feed(source, responder), "squall-feed-" + source.name());
      t.setDaemon(true);
      t.start();
      threads.add(t);
    }
  }

  private void feed(InterruptionSource source, InterruptionResponder responder) {
    LOG.info("listening for interruption notices from {}", source.name());
    while (running) {
      try {
        for (Interruption notice : source.poll()) {
          responder.submit(notice);
        }
      } catch (RuntimeException e) {
        // Unreachable (UncheckedIOException) or anything else: the feed must outlive it, or
        // notices would go unheard until the controller restarts.
        if (e instanceof UncheckedIOException) {
          LOG.warn("interruption source {} unreachable ({}); again in {} s", source.name(), e.getMessage(),
              RETRY_AFTER.toSeconds());
        } else {
          LOG.error("interruption source {} failed; again in {} s", source.name(), RETRY_AFTER.toSeconds(), e);
        }
        try {
          Thread.sleep(RETRY_AFTER.toMillis());
        } catch (InterruptedException stop) {
          return;
        }
      }
    }
  }

  @PreDestroy
  public void close() throws InterruptedException {
    running = false;
    for (Thread t : threads) {
      t.join(Duration.ofSeconds(25).toMillis()); // a long poll ends within its wait
    }
    sources.forEach(InterruptionSource::close);
  }
}
