/**
 * What the strategy modules (rampa-heuristics, rampa-solver) share and library users do not call:
 * the menu of shared slots, the necessary conditions for a plan to exist, warm starts and time
 * budgets. Exported only to those modules (module-info's qualified export).
 */
package org.rampa.strategy.support;
