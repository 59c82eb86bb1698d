/**
 * HTTPS for the controller's API. Two settings, {@code squall.tls.cert} (a PEM certificate
 * chain) and {@code squall.tls.key} (its PEM private key), switch Micronaut's own TLS on, on the
 * server's port, with no plain HTTP listener beside it; {@link io.squall.api.tls.ServerTls} checks
 * them before the server binds so that a wrong file stops the start with one line naming the
 * setting, not a Netty stack trace. Clients (the CLI, agents, jobs) trust a private CA through
 * {@code SQUALL_CA_FILE}.
 */
package io.squall.api.tls;
