/**
 * The local provider: nodes as agent processes on this host, the embedded default.
 *
 * <p>Contract: {@link io.squall.providers.local.LocalProvider} keeps one agent JVM per node name
 * (launch is idempotent, terminate is idempotent and waits for the agent to exit), each in its
 * own directory under the provider's base directory with its log in {@code agent.log}. Agents
 * run this JVM's java and class path and get the agent token through their environment, never
 * on their command line.
 */
package io.squall.providers.local;
