package io.squall.providers.aws;

import java.net.URI;
import java.util.Objects;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.regions.Region;

/**
 * The one way this module builds its SDK clients (EC2, SQS), so they cannot drift apart: the SDK's
 * own retries are off because every caller already has its one retry policy (a launch retried with
 * the same token, a poll repeated), and retries underneath it would multiply.
 */
final class AwsClients {
  private AwsClients() {}

  /**
   * The client from {@code builder} for {@code region}, {@code endpoint} (null for the region's)
   * and {@code credentials} (null for the SDK's {@link DefaultCredentialsProvider} chain), with
   * the SDK's own retries off.
   */
  static <B extends AwsClientBuilder<B, C>, C> C build(B builder, String region, URI endpoint,
      AwsCredentialsProvider credentials) {
    builder.region(Region.of(Objects.requireNonNull(region, "region")))
        .credentialsProvider(credentials != null ? credentials : DefaultCredentialsProvider.builder().build())
        .overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry()));
    if (endpoint != null) {
      builder.endpointOverride(endpoint);
    }
    return builder.build();
  }
}
