/**
 * The RAMPA admission experiment: the planners it compares, the offered-load sweep, the cluster
 * presets, the CSV, chart and summary it writes. The event loop it drives is
 * {@code org.rampa.examples.sim}.
 */
package org.rampa.examples.experiment;
