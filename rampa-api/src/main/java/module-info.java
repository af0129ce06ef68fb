/**
 * RAMPA's API: the immutable domain, the performance model, the plan verifier, the strategy SPI,
 * importance, splitting, catalogs and JSON, all exported; strategies live in other modules and are
 * found through {@link org.rampa.strategy.StrategyProvider}. What only those strategy modules need
 * (the shared-slot menu, the necessary conditions, warm starts, time budgets) sits in
 * {@code org.rampa.strategy.support}, exported to them alone.
 */
// "module": the qualified export names modules built after this one, so javac cannot see them here
@SuppressWarnings("module")
module org.rampa.api {
  // RampaJson.mapper() hands out an ObjectMapper, and the domain types carry Jackson annotations
  requires transitive com.fasterxml.jackson.databind;
  requires com.fasterxml.jackson.datatype.jdk8;
  requires com.fasterxml.jackson.datatype.jsr310;
  // @Value.Immutable and friends are needed to compile, not to run
  requires static org.immutables.value.annotations;

  exports org.rampa;
  exports org.rampa.catalog;
  exports org.rampa.colocation;
  exports org.rampa.domain;
  exports org.rampa.domain.share;
  exports org.rampa.importance;
  exports org.rampa.json;
  exports org.rampa.moves;
  exports org.rampa.perf;
  exports org.rampa.perf.share;
  exports org.rampa.split;
  exports org.rampa.strategy;
  // rampa-solver is an automatic module (org.rampa.solver, named in its manifest): qualified exports reach it too
  exports org.rampa.strategy.support to org.rampa.heuristics, org.rampa.solver;
  exports org.rampa.verify;

  // Jackson binds the generated Immutable* classes through their package-private Json delegates
  opens org.rampa.domain to com.fasterxml.jackson.databind;
  opens org.rampa.domain.share to com.fasterxml.jackson.databind;
  opens org.rampa.json to com.fasterxml.jackson.databind;
  opens org.rampa.strategy to com.fasterxml.jackson.databind;

  uses org.rampa.strategy.StrategyProvider;
}
