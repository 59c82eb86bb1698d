package io.squall.providers.gcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.compute.v1.Error;
import com.google.cloud.compute.v1.Errors;
import com.google.cloud.compute.v1.Operation;
import io.squall.core.provider.ProviderException;
import io.squall.core.provider.ProviderException.Kind;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GceErrorsTest {
  @ParameterizedTest(name = "HTTP {0} {1} -> {2}")
  @CsvSource({
      // operation error codes (with the HTTP status GCE puts on the operation)
      "503, ZONE_RESOURCE_POOL_EXHAUSTED, INSUFFICIENT_CAPACITY",
      "503, ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS, INSUFFICIENT_CAPACITY",
      "503, RESOURCE_POOL_EXHAUSTED, INSUFFICIENT_CAPACITY",
      "0, resourceExhausted, INSUFFICIENT_CAPACITY",
      "403, QUOTA_EXCEEDED, QUOTA_EXCEEDED",
      "0, RESOURCE_OPERATION_RATE_EXCEEDED, THROTTLED",
      "409, RESOURCE_ALREADY_EXISTS, INVALID",
      "400, INVALID_FIELD_VALUE, INVALID",
      "404, RESOURCE_NOT_FOUND, NOT_FOUND",
      // HTTP error reasons (errors[].reason) and API status
      "403, quotaExceeded, QUOTA_EXCEEDED",
      "429, rateLimitExceeded, THROTTLED",
      "403, rateLimitExceeded, THROTTLED",
      "403, userRateLimitExceeded, THROTTLED",
      "429, RESOURCE_EXHAUSTED, THROTTLED",
      "403, forbidden, UNAUTHORIZED",
      "403, insufficientPermissions, UNAUTHORIZED",
      "401, required, UNAUTHORIZED",
      "400, required, INVALID",
      "404, notFound, NOT_FOUND",
      "400, invalid, INVALID",
      "400, badRequest, INVALID",
      "409, alreadyExists, INVALID",
      "500, backendError, TRANSIENT",
      "503, internalError, TRANSIENT",
      // the HTTP status alone
      "429, , THROTTLED",
      "401, , UNAUTHORIZED",
      "403, , UNAUTHORIZED",
      "404, , NOT_FOUND",
      "400, , INVALID",
      "408, , TRANSIENT",
      "500, , TRANSIENT",
      "502, , TRANSIENT",
      "503, , TRANSIENT",
      "0, , TRANSIENT",
      "503, someFutureCode, TRANSIENT",
  })
  void codesThenStatusGiveTheKind(int status, String code, Kind expected) {
    assertThat(GceErrors.kind(status, code == null ? List.of() : List.of(code))).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0} first")
  @CsvSource({"quotaExceeded, PERMISSION_DENIED, QUOTA_EXCEEDED", "unknownReason, RESOURCE_EXHAUSTED, THROTTLED"})
  void theFirstKnownCodeWins(String reason, String apiStatus, Kind expected) {
    assertThat(GceErrors.kind(403, List.of(reason, apiStatus))).isEqualTo(expected);
  }

  @Test
  void anOperationErrorKeepsCodeAndMessage() {
    String message = "The zone 'projects/p/zones/us-central1-a' does not have enough resources available to fulfill "
        + "the request. Try a different zone, or try again later.";
    Operation op = Operation.newBuilder().setName("operation-1").setStatus(Operation.Status.DONE)
        .setHttpErrorStatusCode(503)
        .setError(Error.newBuilder().addErrors(Errors.newBuilder().setCode("ZONE_RESOURCE_POOL_EXHAUSTED").setMessage(message)))
        .build();
    ProviderException e = GceErrors.fromOperation("launch x", op);
    assertThat(e.kind()).isEqualTo(Kind.INSUFFICIENT_CAPACITY);
    assertThat(e.getMessage()).contains("ZONE_RESOURCE_POOL_EXHAUSTED", message, "operation-1", "launch x");
    assertThat(GceErrors.fromOperation("ok", Operation.newBuilder().setStatus(Operation.Status.DONE).build())).isNull();
  }

  @Test
  void anOperationHasACodeWhenAnyOfItsErrorsCarriesIt() {
    Operation op = Operation.newBuilder().setName("operation-2").setStatus(Operation.Status.DONE)
        .setError(Error.newBuilder()
            .addErrors(Errors.newBuilder().setCode("QUOTA_EXCEEDED"))
            .addErrors(Errors.newBuilder().setCode("RESOURCE_ALREADY_EXISTS")))
        .build();
    assertThat(GceErrors.hasCode(op, "RESOURCE_ALREADY_EXISTS")).isTrue();
    assertThat(GceErrors.hasCode(op, "QUOTA_EXCEEDED")).isTrue();
    assertThat(GceErrors.hasCode(op, "ZONE_RESOURCE_POOL_EXHAUSTED")).isFalse();
    assertThat(GceErrors.hasCode(Operation.newBuilder().setStatus(Operation.Status.DONE).build(),
        "RESOURCE_ALREADY_EXISTS")).isFalse();
  }
}
