package io.squall.providers.gcp;

import com.google.api.client.http.HttpResponseException;
import com.google.api.gax.rpc.ApiException;
import com.google.api.gax.rpc.StatusCode;
import com.google.cloud.compute.v1.Errors;
import com.google.cloud.compute.v1.Operation;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.squall.core.provider.ProviderException;
import io.squall.core.provider.ProviderException.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Compute Engine failures as typed {@link ProviderException}s: operation error codes
 * ({@code error.errors[].code}) and HTTP error reasons ({@code error.errors[].reason} of the
 * Google error envelope) first, the HTTP status when no code is known. The GCE code and message
 * stay in the exception's text.
 */
final class GceErrors {
  /** GCE codes and reasons, case-sensitive: {@code resourceExhausted} (a zone) is not {@code RESOURCE_EXHAUSTED} (the API). */
  static final Map<String, Kind> CODES = Map.ofEntries(
      Map.entry("ZONE_RESOURCE_POOL_EXHAUSTED", Kind.INSUFFICIENT_CAPACITY),
      Map.entry("ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS", Kind.INSUFFICIENT_CAPACITY),
      Map.entry("RESOURCE_POOL_EXHAUSTED", Kind.INSUFFICIENT_CAPACITY),
      Map.entry("resourceExhausted", Kind.INSUFFICIENT_CAPACITY),
      Map.entry("QUOTA_EXCEEDED", Kind.QUOTA_EXCEEDED),
      Map.entry("quotaExceeded", Kind.QUOTA_EXCEEDED),
      Map.entry("rateLimitExceeded", Kind.THROTTLED),
      Map.entry("userRateLimitExceeded", Kind.THROTTLED),
      Map.entry("RESOURCE_OPERATION_RATE_EXCEEDED", Kind.THROTTLED),
      Map.entry("RESOURCE_EXHAUSTED", Kind.THROTTLED),
      Map.entry("forbidden", Kind.UNAUTHORIZED),
      Map.entry("insufficientPermissions", Kind.UNAUTHORIZED),
      Map.entry("authError", Kind.UNAUTHORIZED),
      Map.entry("notFound", Kind.NOT_FOUND),
      Map.entry("RESOURCE_NOT_FOUND", Kind.NOT_FOUND),
      Map.entry("invalid", Kind.INVALID),
      Map.entry("badRequest", Kind.INVALID),
      Map.entry("INVALID_FIELD_VALUE", Kind.INVALID),
      Map.entry("INVALID_USAGE", Kind.INVALID),
      Map.entry("alreadyExists", Kind.INVALID),
      Map.entry("RESOURCE_ALREADY_EXISTS", Kind.INVALID),
      Map.entry("backendError", Kind.TRANSIENT),
      Map.entry("internalError", Kind.TRANSIENT));

  private GceErrors() {}

  /**
   * The kind of a failure from its GCE codes or reasons (the first known one wins), else from
   * its HTTP status (0 when there was no response).
   */
  static Kind kind(int httpStatus, List<String> codes) {
    for (String code : codes) {
      Kind k = CODES.get(code);
      if (k != null) {
        return k;
      }
    }
    if (httpStatus == 429) {
      return Kind.THROTTLED;
    }
    if (httpStatus == 401 || httpStatus == 403) {
      return Kind.UNAUTHORIZED;
    }
    if (httpStatus == 404 || httpStatus == 410) {
      return Kind.NOT_FOUND;
    }
    if (httpStatus >= 400 && httpStatus < 500 && httpStatus != 408) {
      return Kind.INVALID;
    }
    return Kind.TRANSIENT;
  }

  /** A failed API call: the HTTP status and the error envelope's reasons and message. */
  static ProviderException fromApi(String action, ApiException e) {
    int status = httpStatus(e);
    List<String> codes = codes(e);
    String message = e.getMessage();
    JsonObject envelope = envelope(e);
    if (envelope != null && envelope.has("message")) {
      message = envelope.get("message").getAsString();
    }
    Kind kind = status > 0 ? kind(status, codes) : kindOfStatusCode(e.getStatusCode().getCode(), codes);
    return new ProviderException(kind, "gcp: " + action + ": HTTP " + (status > 0 ? status : e.getStatusCode().getCode())
        + (codes.isEmpty() ? "" : " " + String.join("/", codes)) + ": " + message, e);
  }

  /** Whether the call failed with this GCE reason ({@code errors[].reason}) or API status. */
  static boolean hasCode(ApiException e, String code) {
    return codes(e).contains(code);
  }

  /** Whether any of the finished operation's errors ({@code error.errors[].code}) is this code. */
  static boolean hasCode(Operation op, String code) {
    return op.hasError() && op.getError().getErrorsList().stream().anyMatch(err -> code.equals(err.getCode()));
  }

  /** The envelope's {@code errors[].reason}s, then its {@code status}. */
  private static List<String> codes(ApiException e) {
    List<String> codes = new ArrayList<>();
    JsonObject envelope = envelope(e);
    if (envelope == null) {
      return codes;
    }
    if (envelope.has("errors") && envelope.get("errors").isJsonArray()) {
      for (JsonElement err : envelope.getAsJsonArray("errors")) {
        if (err.isJsonObject() && err.getAsJsonObject().has("reason")) {
          codes.add(err.getAsJsonObject().get("reason").getAsString());
        }
      }
    }
    if (envelope.has("status")) {
      codes.add(envelope.get("status").getAsString());
    }
    return codes;
  }

  /** A finished operation that carries {@code error.errors[]}; null when it succeeded. */
  static ProviderException fromOperation(String action, Operation op) {
    if (!op.hasError() || op.getError().getErrorsCount() == 0) {
      return null;
    }
    List<String> codes = new ArrayList<>();
    List<String> texts = new ArrayList<>();
    for (Errors err : op.getError().getErrorsList()) {
      codes.add(err.getCode());
      texts.add(err.getCode() + ": " + err.getMessage());
    }
    int status = op.hasHttpErrorStatusCode() ? op.getHttpErrorStatusCode() : 0;
    return new ProviderException(kind(status, codes), "gcp: " + action + ": operation " + op.getName() + " failed: "
        + String.join("; ", texts));
  }

  private static Kind kindOfStatusCode(StatusCode.Code code, List<String> codes) {
    switch (code) {
      case RESOURCE_EXHAUSTED:
        return kind(429, codes);
      case PERMISSION_DENIED:
      case UNAUTHENTICATED:
        return kind(403, codes);
      case NOT_FOUND:
        return kind(404, codes);
      case INVALID_ARGUMENT:
      case FAILED_PRECONDITION:
      case ALREADY_EXISTS:
      case OUT_OF_RANGE:
        return kind(400, codes);
      default:
        return kind(0, codes);
    }
  }

  private static int httpStatus(ApiException e) {
    Object transport = e.getStatusCode().getTransportCode();
    if (transport instanceof Integer) {
      return (Integer) transport;
    }
    HttpResponseException http = httpCause(e);
    return http == null ? 0 : http.getStatusCode();
  }

  private static JsonObject envelope(ApiException e) {
    HttpResponseException http = httpCause(e);
    if (http == null || http.getContent() == null) {
      return null;
    }
    try {
      JsonElement root = JsonParser.parseString(http.getContent());
      if (root.isJsonObject() && root.getAsJsonObject().has("error")
          && root.getAsJsonObject().get("error").isJsonObject()) {
        return root.getAsJsonObject().getAsJsonObject("error");
      }
    } catch (RuntimeException notJson) {
      // a proxy's HTML page: the status alone decides
    }
    return null;
  }

  private static HttpResponseException httpCause(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof HttpResponseException) {
        return (HttpResponseException) t;
      }
    }
    return null;
  }
}
