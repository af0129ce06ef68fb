package org.rampa.solver;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.rampa.strategy.ExtraOptions;
import org.rampa.strategy.SharingOptions;
import org.rampa.strategy.StrategyOptions;
import org.rampa.solver.backend.ScipBackend;
import org.rampa.solver.backend.CpSatBackend;

/**
 * The settings of "exact" and "exact-cpsat", from {@link StrategyOptions#extra()}.
 *
 * @param backend {@code scip} or {@code cpsat}; defaults to the strategy's own
 * @param solverParameters backend parameters in the backend's text format (SCIP:
 *     {@code "limits/nodes = 1000"} lines; CP-SAT: SatParameters text), rejected loudly when the
 *     backend does not accept them; empty for none
 * @param relaxFirst {@code model} = {@code auto} (the default: the small relaxation first, the
 *     co-location model only when the relaxation's plan needs intra-node links it does not get) or
 *     {@code full} (the co-location model at once; slower, for testing and debugging)
 * @param exportLp a file path to write the model to in LP format, when given
 * @param sharing whether stages may take shares of GPUs ({@link SharingOptions}: {@code sharing},
 *     {@code sharingMpsLevels}, {@code sharingTopK}); off by default
 */
record ExactOptions(String backend, String solverParameters, boolean relaxFirst, Optional<String> exportLp,
    SharingOptions sharing) {

  static final Set<String> KEYS = keys();

  private static Set<String> keys() {
    Set<String> keys = new java.util.HashSet<>(Set.of("backend", "solverParameters", "model", "exportLp"));
    keys.addAll(SharingOptions.KEYS);
    return Set.copyOf(keys);
  }

  static ExactOptions of(StrategyOptions options, String strategy, String defaultBackend) {
    ExtraOptions extra = ExtraOptions.of(options, strategy, KEYS);
    return new ExactOptions(
        extra.choice("backend", defaultBackend, List.of(ScipBackend.NAME, CpSatBackend.NAME)),
        extra.text("solverParameters").orElse(""),
        extra.choice("model", "auto", List.of("auto", "full")).equals("auto"),
        extra.text("exportLp"),
        SharingOptions.of(extra));
  }
}
