package org.rampa;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * rampa-api's packages form no cycle: each top-level package under {@code org.rampa} (with its
 * sub-packages, so {@code domain.share} belongs to {@code domain}) may depend on another only if
 * that one does not depend back, directly or through others. Read from the compiled main classes,
 * so only real (bytecode) dependencies count, not Javadoc links.
 *
 * <p>No edge is ignored. {@code catalog} sits above {@code perf}: the GPU catalog fits each type's
 * per-layer overhead with the whole-GPU roofline, so the default share-time tiers in
 * {@code perf.share} record their catalog-derived calibration instead of reading the catalogs
 * ({@code CalibratedFloorsTest} keeps the records equal to a fresh fit).
 */
class PackageCyclesTest {

  private static final JavaClasses MAIN = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackagesOf(Rampa.class);

  @Test
  void thePackagesOfRampaApiFormNoCycle() {
    slices().matching("org.rampa.(*)..").should().beFreeOfCycles()
        .check(MAIN);
  }
}
