package io.squall.providers.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.provider.ProviderException;
import io.squall.core.provider.ProviderException.Kind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;

class Ec2ErrorsTest {
  @ParameterizedTest(name = "{0} HTTP {1} -> {2}")
  @CsvSource({
      "InsufficientInstanceCapacity, 400, INSUFFICIENT_CAPACITY",
      "InsufficientHostCapacity, 400, INSUFFICIENT_CAPACITY",
      "InsufficientCapacity, 400, INSUFFICIENT_CAPACITY",
      "InsufficientReservedInstanceCapacity, 400, INSUFFICIENT_CAPACITY",
      "InsufficientFreeAddressesInSubnet, 400, INSUFFICIENT_CAPACITY",
      "Unsupported, 400, INSUFFICIENT_CAPACITY",
      "MaxSpotInstanceCountExceeded, 400, QUOTA_EXCEEDED",
      "InstanceLimitExceeded, 400, QUOTA_EXCEEDED",
      "VcpuLimitExceeded, 400, QUOTA_EXCEEDED",
      "SpotMaxPriceTooLow, 400, PRICE_TOO_HIGH",
      "RequestLimitExceeded, 503, THROTTLED",
      "Throttling, 400, THROTTLED",
      "ThrottlingException, 400, THROTTLED",
      "SomethingNew, 429, THROTTLED",
      "AuthFailure, 401, UNAUTHORIZED",
      "UnauthorizedOperation, 403, UNAUTHORIZED",
      "Blocked, 403, UNAUTHORIZED",
      "OptInRequired, 401, UNAUTHORIZED",
      "SomethingNew, 403, UNAUTHORIZED",
      "InvalidInstanceID.NotFound, 400, NOT_FOUND",
      "InvalidPlacementGroup.Unknown, 400, NOT_FOUND",
      "InvalidInstanceID.Malformed, 400, INVALID",
      "InvalidParameterValue, 400, INVALID",
      "InvalidAMIID.NotFound, 400, INVALID",
      "IdempotentParameterMismatch, 400, INVALID",
      "MissingParameter, 400, INVALID",
      "InternalError, 500, TRANSIENT",
      "ServiceUnavailable, 503, TRANSIENT",
      "Unavailable, 503, TRANSIENT",
      "SomethingNew, 502, TRANSIENT",
  })
  void codesMapToKinds(String code, int status, Kind kind) {
    assertThat(Ec2Errors.kind(code, status)).isEqualTo(kind);
    assertThat(Ec2Errors.translate("Op", serviceError(code, status, "text")).kind()).isEqualTo(kind);
  }

  @Test
  void theMessageKeepsTheOperationCodeAndText() {
    ProviderException e = Ec2Errors.translate("RunInstances p5.48xlarge/us-east-1a/SPOT",
        serviceError("InsufficientInstanceCapacity", 400, "We currently do not have sufficient p5.48xlarge capacity"));
    assertThat(e).hasMessage("RunInstances p5.48xlarge/us-east-1a/SPOT: InsufficientInstanceCapacity: We currently"
        + " do not have sufficient p5.48xlarge capacity");
    assertThat(e.getCause()).isInstanceOf(AwsServiceException.class);
  }

  @Test
  void aClientFailureIsTransient() {
    ProviderException e = Ec2Errors.translate("DescribeInstances", SdkClientException.create("Connection refused"));
    assertThat(e.kind()).isEqualTo(Kind.TRANSIENT);
    assertThat(e.getMessage()).contains("Connection refused");
    assertThat(Ec2Errors.code(SdkClientException.create("x"))).isNull();
  }

  static AwsServiceException serviceError(String code, int status, String message) {
    return AwsServiceException.builder().statusCode(status)
        .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage(message).build())
        .message(message).build();
  }
}
