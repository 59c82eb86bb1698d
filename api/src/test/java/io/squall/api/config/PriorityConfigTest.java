package io.squall.api.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.micronaut.context.ApplicationContext;
import io.squall.api.scheduling.SchedulerFactory;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code squall.priority.accrue-always} is Slurm's PriorityFlags=ACCRUE_ALWAYS; off, as in Slurm, unless set. */
class PriorityConfigTest {
  @Test
  void accrueAlwaysReachesTheSchedulerWhenSetAndIsOffOtherwise() {
    assertThat(SchedulerFactory.config(new PriorityConfig(), new BackfillConfig()).accrueAlways()).isFalse();
    try (ApplicationContext ctx = ApplicationContext.run(Map.of("squall.priority.accrue-always", "true"))) {
      assertThat(SchedulerFactory.config(ctx.getBean(PriorityConfig.class), ctx.getBean(BackfillConfig.class)).accrueAlways()).isTrue();
    }
  }
}
