package io.squall.providers.aws;

import io.squall.core.provider.ProviderException;
import io.squall.core.provider.ProviderException.Kind;
import java.util.Map;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * EC2's error codes as {@link ProviderException.Kind}s. EC2 answers errors with a code
 * ({@code InsufficientInstanceCapacity}, {@code RequestLimitExceeded}, ...); the code decides the
 * kind, the HTTP status only when the code is not known. The message keeps EC2's code and text.
 */
final class Ec2Errors {
  private Ec2Errors() {}

  private static final Map<String, Kind> BY_CODE = Map.ofEntries(
      Map.entry("InsufficientInstanceCapacity", Kind.INSUFFICIENT_CAPACITY),
      Map.entry("InsufficientHostCapacity", Kind.INSUFFICIENT_CAPACITY),
      Map.entry("InsufficientCapacity", Kind.INSUFFICIENT_CAPACITY),
      Map.entry("InsufficientReservedInstanceCapacity", Kind.INSUFFICIENT_CAPACITY),
      Map.entry("InsufficientFreeAddressesInSubnet", Kind.INSUFFICIENT_CAPACITY),
      Map.entry("Unsupported", Kind.INSUFFICIENT_CAPACITY),
      Map.entry("MaxSpotInstanceCountExceeded", Kind.QUOTA_EXCEEDED),
      Map.entry("InstanceLimitExceeded", Kind.QUOTA_EXCEEDED),
      Map.entry("VcpuLimitExceeded", Kind.QUOTA_EXCEEDED),
      Map.entry("SpotMaxPriceTooLow", Kind.PRICE_TOO_HIGH),
      Map.entry("RequestLimitExceeded", Kind.THROTTLED),
      Map.entry("Throttling", Kind.THROTTLED),
      Map.entry("ThrottlingException", Kind.THROTTLED),
      Map.entry("AuthFailure", Kind.UNAUTHORIZED),
      Map.entry("UnauthorizedOperation", Kind.UNAUTHORIZED),
      Map.entry("Blocked", Kind.UNAUTHORIZED),
      Map.entry("OptInRequired", Kind.UNAUTHORIZED),
      Map.entry("InvalidClientTokenId", Kind.UNAUTHORIZED),
      Map.entry("SignatureDoesNotMatch", Kind.UNAUTHORIZED),
      Map.entry("InvalidInstanceID.NotFound", Kind.NOT_FOUND),
      Map.entry("InvalidPlacementGroup.Unknown", Kind.NOT_FOUND),
      Map.entry("InternalError", Kind.TRANSIENT),
      Map.entry("InternalFailure", Kind.TRANSIENT),
      Map.entry("ServiceUnavailable", Kind.TRANSIENT),
      Map.entry("Unavailable", Kind.TRANSIENT));

  /** The kind of an EC2 error code, falling back on its HTTP status when the code is not known. */
  static Kind kind(String code, int httpStatus) {
    Kind known = code == null ? null : BY_CODE.get(code);
    if (known != null) {
      return known;
    }
    if (httpStatus == 429) {
      return Kind.THROTTLED;
    }
    if (httpStatus == 401 || httpStatus == 403) {
      return Kind.UNAUTHORIZED;
    }
    if (httpStatus >= 500 || httpStatus <= 0) {
      return Kind.TRANSIENT;
    }
    return Kind.INVALID;
  }

  /** The EC2 error code of a failure, null when EC2 did not answer (network, client). */
  static String code(SdkException e) {
    if (e instanceof AwsServiceException) {
      AwsErrorDetails details = ((AwsServiceException) e).awsErrorDetails();
      return details == null ? null : details.errorCode();
    }
    return null;
  }

  /** {@code e} as a typed provider failure of {@code operation} ({@code "RunInstances p5.48xlarge/us-east-1a"}). */
  static ProviderException translate(String operation, SdkException e) {
    if (e instanceof AwsServiceException) {
      AwsServiceException service = (AwsServiceException) e;
      AwsErrorDetails details = service.awsErrorDetails();
      String code = code(e);
      String text = details == null ? service.getMessage() : details.errorMessage();
      String message = operation + ": " + (code == null ? "HTTP " + service.statusCode() : code)
          + (text == null || text.isBlank() ? "" : ": " + text);
      return new ProviderException(kind(code, service.statusCode()), message, e);
    }
    // SdkClientException: no answer (connection refused, timeout, unreadable reply).
    return new ProviderException(Kind.TRANSIENT, operation + ": " + e.getMessage(), e);
  }
}
