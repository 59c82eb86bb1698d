package io.squall.core.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Test;

/** The core knows only the JDK: no framework, no cloud SDK, no files, sockets or threads of its own. */
class CorePurityTest {
  private final JavaClasses core = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.squall.core");

  @Test
  void coreDependsOnTheJdkOnly() {
    noClasses().should().dependOnClassesThat().resideOutsideOfPackages("io.squall.core..", "java..")
        .check(core);
  }

  @Test
  void coreDoesNoIo() {
    noClasses().should().dependOnClassesThat()
        .resideInAnyPackage("java.io..", "java.nio..", "java.net..", "java.util.concurrent..")
        .orShould().dependOnClassesThat().areAssignableTo(Thread.class)
        .check(core);
  }
}
