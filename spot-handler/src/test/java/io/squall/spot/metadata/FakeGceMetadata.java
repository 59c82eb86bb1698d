package io.squall.spot.metadata;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;

/**
 * The GCE metadata server: refuses a request without {@code Metadata-Flavor: Google} with 403,
 * as the real one does, and answers {@code instance/id}, {@code instance/preempted} and {@code
 * instance/maintenance-event} as set.
 */
final class FakeGceMetadata extends FakeMetadataServer {
  static final String INSTANCE_ID = "4520371122839482913";

  private volatile String preempted = "FALSE";
  private volatile String maintenanceEvent = "NONE";

  FakeGceMetadata() throws IOException {
    super();
  }

  void preempted(String value) {
    preempted = value;
  }

  void maintenanceEvent(String value) {
    maintenanceEvent = value;
  }

  @Override
  void handle(HttpExchange exchange, String method, String path) throws IOException {
    if (!GceMetadataSource.FLAVOR.equals(exchange.getRequestHeaders().getFirst(GceMetadataSource.FLAVOR_HEADER))) {
      respond(exchange, 403, "Missing required header \"Metadata-Flavor\"");
      return;
    }
    exchange.getResponseHeaders().set("Metadata-Flavor", "Google");
    String body = switch (path) {
      case GceMetadataSource.ID_PATH -> INSTANCE_ID;
      case GceMetadataSource.PREEMPTED_PATH -> preempted;
      case GceMetadataSource.MAINTENANCE_PATH -> maintenanceEvent;
      default -> null;
    };
    if (!method.equals("GET") || body == null) {
      respond(exchange, 404, "");
    } else {
      respond(exchange, 200, body);
    }
  }
}
