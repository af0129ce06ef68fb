/**
 * Importers of measured profiles published by other systems: PipeDream profiler graphs and the
 * layer graphs of Tarnawski et al., turned into models and split inputs ({@link
 * org.rampa.split.LayerCostTable}). Parsing only; splitting them is {@code org.rampa.heuristics.split}.
 */
package org.rampa.heuristics.profiles;
