/**
 * The fluent entry point {@link org.rampa.Rampa}: cluster, state, strategy and settings in, a
 * verified {@link org.rampa.strategy.PlacementResult} out. The values it works with live in the
 * sub-packages; no strategy lives here.
 */
package org.rampa;
