package io.squall.core.spot;

import java.util.List;

/**
 * Something that hears of interruptions: a node's metadata service, a cloud's event queue.
 *
 * <p>Contract: {@link #poll} returns the notices heard since the previous call, oldest first,
 * and blocks at most for the source's own poll interval; it never throws for a notice it cannot
 * read (that is logged and skipped) and throws {@link java.io.UncheckedIOException} only when the
 * source itself cannot be reached, after which the caller may call again. A source may repeat a
 * notice (a metadata service keeps answering until the machine goes; a queue delivers at least
 * once): the consumer treats the same node and kind as one interruption. Implementations are
 * used from one thread.
 */
public interface InterruptionSource extends AutoCloseable {
  /** For logs: e.g. {@code aws-metadata}, {@code sqs:queue-name}. */
  String name();

  List<Interruption> poll();

  /** Releases connections; idempotent. */
  @Override
  void close();
}
