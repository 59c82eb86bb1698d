package io.squall.core.money;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class PriceSeriesTest {
  private static final Instant T0 = Instant.parse("2026-11-25T08:00:00Z");
  private static final String SPOT = "p5.48xlarge/us-east-1a/SPOT";

  private static Instant at(long minutes) {
    return T0.plus(Duration.ofMinutes(minutes));
  }

  @Test
  void anotherPriceEndsTheOneInForceAndTheSamePriceChangesNothing() {
    PriceSeries s = new PriceSeries();
    PriceSeries.Change first = s.observe(SPOT, 30, at(0)).orElseThrow();
    assertThat(first.ended()).isNull();
    assertThat(first.begun()).isEqualTo(new PricePoint(SPOT, 30, at(0), null));
    assertThat(s.observe(SPOT, 30, at(5))).isEmpty();

    PriceSeries.Change second = s.observe(SPOT, 20, at(60)).orElseThrow();
    assertThat(second.ended()).isEqualTo(new PricePoint(SPOT, 30, at(0), at(60)));
    assertThat(second.begun()).isEqualTo(new PricePoint(SPOT, 20, at(60), null));
    // Learnt forward: an observation older than the price in force is not history to rewrite.
    assertThat(s.observe(SPOT, 25, at(30))).isEmpty();
    assertThat(s.all()).containsExactly(new PricePoint(SPOT, 30, at(0), at(60)), new PricePoint(SPOT, 20, at(60), null));
  }

  @Test
  void thePriceInForceAtAnInstant() {
    PriceSeries s = new PriceSeries();
    s.observe(SPOT, 30, at(0));
    s.observe(SPOT, 20, at(60));
    assertThat(s.at(SPOT, at(-1))).isEmpty();
    assertThat(s.at(SPOT, at(0)).orElseThrow().usdPerHour()).isEqualTo(30);
    assertThat(s.at(SPOT, at(59)).orElseThrow().usdPerHour()).isEqualTo(30);
    assertThat(s.at(SPOT, at(60)).orElseThrow().usdPerHour()).isEqualTo(20);
    assertThat(s.at(SPOT, at(10_000)).orElseThrow().usdPerHour()).isEqualTo(20);
    assertThat(s.at("other", at(0))).isEmpty();
  }

  @Test
  void dollarsAreEachPriceTimesTheTimeItWasInForce() {
    PriceSeries s = new PriceSeries();
    s.observe(SPOT, 30, at(0));
    s.observe(SPOT, 20, at(60));
    assertThat(s.dollars(SPOT, at(30), at(90))).isCloseTo(0.5 * 30 + 0.5 * 20, within(1e-9));
    assertThat(s.dollars(SPOT, at(60), at(60))).isZero();
    // Before the first known price: that first price (a launch is priced no later than it is made).
    assertThat(s.dollars(SPOT, at(-60), at(30))).isCloseTo(1.5 * 30, within(1e-9));
    assertThat(s.dollars(SPOT, at(-60), at(-30))).isCloseTo(0.5 * 30, within(1e-9));
    assertThatThrownBy(() -> s.dollars("other", at(0), at(1))).isInstanceOf(IllegalStateException.class)
        .hasMessage("no price known for other");
  }

  @Test
  void storedPointsGiveTheSameSeriesBack() {
    PriceSeries s = new PriceSeries();
    s.observe(SPOT, 30, at(0));
    s.observe(SPOT, 20, at(60));
    s.observe("p5.48xlarge/us-east-1a/ON_DEMAND", 98.32, at(0));
    List<PricePoint> stored = new ArrayList<>(s.all());
    Collections.reverse(stored); // any order
    PriceSeries again = PriceSeries.of(stored);
    assertThat(again.all()).isEqualTo(s.all());
    assertThat(again.dollars(SPOT, at(0), at(120))).isEqualTo(s.dollars(SPOT, at(0), at(120)));
    assertThat(again.between(SPOT, at(61), at(62))).containsExactly(new PricePoint(SPOT, 20, at(60), null));
    assertThat(again.observe(SPOT, 20, at(200))).isEmpty(); // the open point is still the one in force
  }

  @Test
  void aPriceIsAFiniteNumberAtLeastZeroAndEndsAfterItBegins() {
    assertThatThrownBy(() -> new PricePoint(SPOT, -1, at(0), null)).hasMessageContaining("not -1.0");
    assertThatThrownBy(() -> new PricePoint(SPOT, Double.NaN, at(0), null)).hasMessageContaining("not NaN");
    assertThatThrownBy(() -> new PricePoint(SPOT, 1, at(1), at(1))).hasMessageContaining("ends after it begins");
  }
}
