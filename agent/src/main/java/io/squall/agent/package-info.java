/** The node agent. */
package io.squall.agent;
