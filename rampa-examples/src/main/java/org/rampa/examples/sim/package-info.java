/**
 * A discrete-event simulator of online admission: arrivals, workloads, the planner interface the
 * simulator calls, and what one run measured. It knows no particular experiment or planner names
 * (those are {@code org.rampa.examples.experiment}).
 */
package org.rampa.examples.sim;
