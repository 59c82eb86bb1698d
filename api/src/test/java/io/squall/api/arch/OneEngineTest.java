package io.squall.api.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.squall.api.fleet.ElasticFleet;
import io.squall.api.jobs.JobLifecycle;
import io.squall.api.scheduling.SchedulingCycle;
import io.squall.api.spot.InterruptionResponder;
import io.squall.checkpoint.Checkpoint;
import io.squall.checkpoint.LostWork;
import io.squall.core.provision.FleetActuator;
import io.squall.core.provision.OfferingBook;
import io.squall.core.priority.UsageMeter;
import io.squall.core.provision.PowerPlanner;
import io.squall.core.spot.RestartBackoff;
import io.squall.simulate.ElasticSimulation;
import io.squall.spot.drain.DrainBook;
import io.squall.spot.drain.RequeueDecision;
import java.time.Instant;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The service and the simulator run one engine: the fleet's and the drain's decisions are made
 * in core and spot-handler only, and both sides drive the same classes (fair-share charging,
 * {@link UsageMeter}, too). Neither {@code api} nor the simulator plans power, keeps an offering
 * book, times a restart backoff, counts lost work or decides whether a checkpoint came in time on
 * its own.
 */
class OneEngineTest {
  private final JavaClasses sides = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("io.squall.api", "io.squall.simulate");

  @Test
  void neitherSideHoldsACopyOfTheFleetsOrTheDrainsDecisions() {
    noClasses().should().dependOnClassesThat().belongToAnyOf(PowerPlanner.class, OfferingBook.class,
            RestartBackoff.class, LostWork.class)
        .orShould().callMethod(Checkpoint.class, "takenSince", Instant.class)
        .because("the fleet (FleetActuator), the drain (DrainBook) and the requeue decision (RequeueDecision)"
            + " are the one engine both run")
        .check(sides);
  }

  @Test
  void theServiceAndTheSimulatorDriveTheSameFleetAndDrain() {
    assertThat(engineOf(ElasticFleet.class)).contains(FleetActuator.class.getName());
    assertThat(engineOf(ElasticSimulation.class)).contains(FleetActuator.class.getName(), DrainBook.class.getName(),
        RequeueDecision.class.getName());
    assertThat(engineOf(InterruptionResponder.class)).contains(DrainBook.class.getName());
    assertThat(engineOf(JobLifecycle.class)).contains(RequeueDecision.class.getName(), UsageMeter.class.getName());
    assertThat(engineOf(SchedulingCycle.class)).contains(UsageMeter.class.getName());
    assertThat(engineOf(ElasticSimulation.class)).contains(UsageMeter.class.getName());
  }

  /** The classes the class (its nested classes included) uses. */
  private Set<String> engineOf(Class<?> side) {
    return sides.stream().filter(c -> c.getName().equals(side.getName()) || c.getName().startsWith(side.getName() + "$"))
        .flatMap(c -> c.getDirectDependenciesFromSelf().stream())
        .map(d -> d.getTargetClass().getName()).collect(Collectors.toSet());
  }
}
