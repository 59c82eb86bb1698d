package io.squall.simulate;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The simulator is pure like the core: virtual time, seeded randomness, memory; no framework, no
 * files, sockets or threads. That is what makes the same inputs give the same figures.
 *
 * <p>The trace readers ({@code io.squall.simulate.trace}) are its input edge: they turn a job
 * history that the caller hands them as a {@link java.io.Reader} into jobs, with Jackson for the
 * JSON formats. They still open no file or socket and start no thread, and the engine does not
 * depend on them.
 */
class SimulatorPurityTest {
  private static final String TRACES = "io.squall.simulate.trace..";

  private final JavaClasses simulator = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.squall.simulate");

  @Test
  void theSimulatorDependsOnSquallsEngineAndTheJdkOnly() {
    noClasses().that().resideOutsideOfPackage(TRACES).should().dependOnClassesThat()
        .resideOutsideOfPackages("io.squall.simulate..", "io.squall.core..", "io.squall.spot..",
            "io.squall.checkpoint..", "java..")
        .check(simulator);
  }

  @Test
  void theSimulatorDoesNoIo() {
    noClasses().that().resideOutsideOfPackage(TRACES).should().dependOnClassesThat()
        .resideInAnyPackage("java.io..", "java.nio..", "java.net..", "java.util.concurrent..")
        .orShould().dependOnClassesThat().areAssignableTo(Thread.class)
        .check(simulator);
  }

  @Test
  void theEngineDoesNotReadTraces() {
    noClasses().that().resideOutsideOfPackage(TRACES).should().dependOnClassesThat().resideInAPackage(TRACES)
        .check(simulator);
  }

  @Test
  void traceReadersReadWhatTheyAreHandedAndNothingElse() {
    noClasses().that().resideInAPackage(TRACES).should().dependOnClassesThat()
        .resideOutsideOfPackages("io.squall.simulate..", "io.squall.core..", "java..",
            "com.fasterxml.jackson.core..", "com.fasterxml.jackson.databind..")
        .orShould().dependOnClassesThat()
        .resideInAnyPackage("java.nio.file..", "java.net..", "java.util.concurrent..")
        .orShould().dependOnClassesThat().areAssignableTo(java.io.File.class)
        .orShould().dependOnClassesThat().areAssignableTo(java.io.InputStream.class)
        .orShould().dependOnClassesThat().areAssignableTo(java.io.OutputStream.class)
        .orShould().dependOnClassesThat().areAssignableTo(Thread.class)
        .check(simulator);
  }
}
