/**
 * Node-side interruption watchers: {@link io.squall.core.spot.InterruptionSource}s that read the
 * cloud's metadata service of the machine they run on ({@link
 * io.squall.spot.metadata.Ec2MetadataSource} for EC2 IMDSv2, {@link
 * io.squall.spot.metadata.GceMetadataSource} for GCE). The node agent runs one when started with
 * {@code --interruptions aws|gcp} and reports what it hears to the controller.
 *
 * <p>Contracts, beyond the SPI's:
 *
 * <ul>
 *   <li>Plain {@code java.net.http}: no cloud SDK, so the agent stays small and the watchers can
 *       be tested against a fake server that speaks the real protocol.
 *   <li>A notice names the node (given to the constructor) and the instance (read once from the
 *       service); {@code noticedAt} is the injected clock's time of the poll that saw it.
 *   <li>Each kind of notice is reported once while the service keeps showing it, and again only
 *       after the service has shown none of that kind in between.
 *   <li>A poll that throws remembers nothing, so no notice is lost to a failed poll: the next
 *       poll that succeeds reports it.
 *   <li>An answer that cannot be read is logged ({@link java.lang.System.Logger}, once per
 *       distinct answer) and skipped; any status other than 200 and 404 (after a token retry on
 *       EC2) is an {@link java.io.UncheckedIOException}.
 * </ul>
 */
package io.squall.spot.metadata;
