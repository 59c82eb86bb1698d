package io.squall.core.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * A node's timeline answers as summing its bookings at every moment would: whether amounts fit
 * over a span, the earliest start that fits, and the times something frees.
 */
class NodeTimelineTest {
  private static final long NOW = 1_000_000;
  private static final int GPUS = 8;
  private static final int CPUS = 32;
  private static final long MEMORY = 1_000;

  private record Booking(long start, long end, int gpus, int cpus, long memory) {}

  /** Free amounts at {@code t}: the slow way, every booking summed. */
  private static long[] freeAt(List<Booking> bookings, long t) {
    long[] free = {GPUS, CPUS, MEMORY};
    for (Booking b : bookings) {
      if (b.start() <= t && t < b.end()) {
        free[0] -= b.gpus();
        free[1] -= b.cpus();
        free[2] -= b.memory();
      }
    }
    return free;
  }

  private static boolean fitsSlowly(List<Booking> bookings, long start, long end, int g, int c, long m) {
    // Usage only rises where a booking starts, so the start and those inside the span are enough.
    List<Long> times = new ArrayList<>(List.of(start));
    bookings.stream().filter(b -> b.start() > start && b.start() < end).forEach(b -> times.add(b.start()));
    return times.stream().map(t -> freeAt(bookings, t)).allMatch(f -> f[0] >= g && f[1] >= c && f[2] >= m);
  }

  @Property(tries = 300)
  void answersAsSummingEveryBooking(@ForAll long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    NodeTimeline timeline = new NodeTimeline(NOW, GPUS, CPUS, MEMORY);
    List<Booking> bookings = new ArrayList<>();
    int count = rnd.nextInt(12);
    for (int k = 0; k < count; k++) {
      long start = rnd.nextBoolean() ? NOW : NOW + 10 * rnd.nextInt(50);
      long end = rnd.nextInt(8) == 0 ? Long.MAX_VALUE : start + 10 * (1 + rnd.nextInt(40));
      Booking b = new Booking(start, end, rnd.nextInt(3), rnd.nextInt(9), rnd.nextInt(200));
      bookings.add(b);
      timeline.book(b.start(), b.end(), b.gpus(), b.cpus(), b.memory());
    }
    for (int q = 0; q < 20; q++) {
      int g = rnd.nextInt(GPUS + 1);
      int c = rnd.nextInt(CPUS + 1);
      long m = rnd.nextInt((int) MEMORY + 1);
      long seconds = 10 * (1 + rnd.nextInt(40));
      long start = NOW + 5 * rnd.nextInt(200);
      long end = NodeTable.plus(start, seconds);
      assertThat(timeline.fits(start, end, g, c, m)).isEqualTo(fitsSlowly(bookings, start, end, g, c, m));

      long until = NOW + 10 * rnd.nextInt(100);
      List<Long> candidates = new ArrayList<>(List.of(NOW));
      bookings.stream().map(Booking::end).filter(t -> t > NOW && t <= until).sorted().forEach(candidates::add);
      long expected = candidates.stream()
          .filter(t -> fitsSlowly(bookings, t, NodeTable.plus(t, seconds), g, c, m)).findFirst().orElse(-1L);
      assertThat(timeline.earliestStart(NOW, until, seconds, g, c, m)).isEqualTo(expected);

      long after = NOW + 10 * rnd.nextInt(60);
      long[] freeing = new long[timeline.steps()];
      int n = timeline.freeingTimes(after, until, freeing, 0);
      long[] slow = bookings.stream().map(Booking::end).filter(t -> t > after && t <= until).distinct().sorted()
          .filter(t -> {
            long[] before = freeAt(bookings, t - 1);
            long[] then = freeAt(bookings, t);
            return then[0] > before[0] || then[1] > before[1] || then[2] > before[2];
          }).mapToLong(Long::longValue).toArray();
      assertThat(Arrays.copyOf(freeing, n)).containsExactly(slow);
    }
  }
}
