/**
 * RAMPA's heuristics: the greedy, label-setting DP and baseline strategies (found through {@link
 * org.rampa.strategy.StrategyProvider}, so their package stays unexported), the importance models,
 * the min-period splitter, the PipeDream and Tarnawski profile importers and the learned
 * co-location policy's network and its REINFORCE training.
 */
module org.rampa.heuristics {
  requires transitive org.rampa.api;
  // the Tarnawski importer reads its JSON as a tree
  requires com.fasterxml.jackson.databind;

  exports org.rampa.heuristics.colocation;
  exports org.rampa.heuristics.importance;
  exports org.rampa.heuristics.learned;
  exports org.rampa.heuristics.moves;
  exports org.rampa.heuristics.profiles;
  exports org.rampa.heuristics.split;

  provides org.rampa.strategy.StrategyProvider with org.rampa.heuristics.strategy.HeuristicStrategyProvider;
}
