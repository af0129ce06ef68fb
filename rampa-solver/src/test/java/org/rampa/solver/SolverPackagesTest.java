package org.rampa.solver;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;
import org.rampa.solver.flow.IntervalFlowFormulation;

/**
 * The package map of rampa-solver, checked on its main classes: the exact planner's entry points in
 * {@code org.rampa.solver} use the interval-flow formulation ({@code flow}) and the solver backends
 * ({@code backend}); the co-location planner ({@code colocation}) uses the backends; the backends
 * use nothing else of the solver; no cycle between the sub-packages; and inside {@code flow} the
 * build steps receive values rather than reaching back into the formulation they build.
 */
class SolverPackagesTest {

  private static final JavaClasses SOLVER = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("org.rampa.solver");

  @Test
  void subPackagesAreFreeOfCycles() {
    slices().matching("org.rampa.solver.(*)..").should().beFreeOfCycles().check(SOLVER);
  }

  @Test
  void layersDependDownwardOnly() {
    layeredArchitecture().consideringOnlyDependenciesInLayers()
        .layer("Exact").definedBy("org.rampa.solver")
        .layer("Flow").definedBy("org.rampa.solver.flow..")
        .layer("Colocation").definedBy("org.rampa.solver.colocation..")
        .layer("Backend").definedBy("org.rampa.solver.backend..")
        .whereLayer("Exact").mayNotBeAccessedByAnyLayer()
        .whereLayer("Flow").mayOnlyBeAccessedByLayers("Exact")
        .whereLayer("Colocation").mayNotBeAccessedByAnyLayer()
        .whereLayer("Backend").mayOnlyBeAccessedByLayers("Exact", "Flow", "Colocation")
        .check(SOLVER);
  }

  @Test
  void buildStepsDoNotReachIntoTheFormulation() {
    // the steps (FreeGpus, NodeSlots, ArcGenerator, SharedArcs, SharedSlots, FlowProgramBuilder,
    // SharedRows) get the values of the steps before; only the readers of a built formulation see it
    noClasses().that().resideInAPackage("org.rampa.solver.flow")
        .and().haveNameNotMatching(".*\\.(IntervalFlowFormulation|SolutionDecoder|CostBound)(\\$.*)?")
        .should().dependOnClassesThat().belongToAnyOf(IntervalFlowFormulation.class)
        .check(SOLVER);
  }
}
