package io.squall.simulate;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The simulator is pure like the core: virtual time, seeded randomness, memory; no framework, no
 * files, sockets or threads. That is what makes the same inputs give the same figures.
 */
class SimulatorPurityTest {
  private final JavaClasses simulator = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.squall.simulate");

  @Test
  void theSimulatorDependsOnSquallsEngineAndTheJdkOnly() {
    noClasses().should().dependOnClassesThat()
        .resideOutsideOfPackages("io.squall.simulate..", "io.squall.core..", "io.squall.spot..",
            "io.squall.checkpoint..", "java..")
        .check(simulator);
  }

  @Test
  void theSimulatorDoesNoIo() {
    noClasses().should().dependOnClassesThat()
        .resideInAnyPackage("java.io..", "java.nio..", "java.net..", "java.util.concurrent..")
        .orShould().dependOnClassesThat().areAssignableTo(Thread.class)
        .check(simulator);
  }
}
