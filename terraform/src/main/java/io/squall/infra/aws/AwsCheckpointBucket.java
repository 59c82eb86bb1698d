package io.squall.infra.aws;

import com.hashicorp.cdktf.TerraformResource;
import io.squall.infra.tf.Elements;
import java.util.List;
import java.util.Map;

/**
 * The bucket for checkpoints ({@code checkpoints/}), the server and agent distributions
 * ({@code dist/}) and the controller's configuration ({@code controller/}): private (every public
 * access block on, objects owned by the bucket's account), encrypted at rest (SSE-S3).
 */
final class AwsCheckpointBucket {
  final TerraformResource bucket;
  final String name;
  final String arn;

  AwsCheckpointBucket(AwsScope s) {
    String given = s.config.infra().checkpointBucket();
    // Bucket names are global: without a configured one, S3 adds a unique suffix to the prefix.
    bucket = s.resource("aws_s3_bucket", "checkpoints", given != null ? Map.of("bucket", given)
        : Map.of("bucket_prefix", s.named("checkpoints-")));
    name = Elements.ref(bucket, "id");
    arn = Elements.ref(bucket, "arn");
    s.resource("aws_s3_bucket_public_access_block", "checkpoints", Map.of("bucket", name,
        "block_public_acls", true, "block_public_policy", true, "ignore_public_acls", true,
        "restrict_public_buckets", true));
    s.resource("aws_s3_bucket_ownership_controls", "checkpoints", Map.of("bucket", name,
        "rule", Map.of("object_ownership", "BucketOwnerEnforced")));
    s.resource("aws_s3_bucket_server_side_encryption_configuration", "checkpoints", Map.of("bucket", name,
        "rule", List.of(Map.of("apply_server_side_encryption_by_default", Map.of("sse_algorithm", "AES256")))));
  }

  /** The ARN of the objects under {@code prefix} (e.g. {@code dist/*}). */
  String objects(String prefix) {
    return arn + "/" + prefix;
  }
}
