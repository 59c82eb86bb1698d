/** The local provider: nodes as agent processes on this host. */
package io.squall.providers.local;
