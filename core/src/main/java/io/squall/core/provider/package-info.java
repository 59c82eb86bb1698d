/**
 * The provider SPI: how the controller asks for nodes. Providers are plugins in
 * {@code providers/*}; the controller is their only caller.
 */
package io.squall.core.provider;
