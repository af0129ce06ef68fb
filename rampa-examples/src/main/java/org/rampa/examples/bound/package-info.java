/**
 * The offline upper bound on admissions: for one arrival trace, how many services any scheduler
 * could admit at most, knowing the future ({@link org.rampa.examples.bound.OfflineBound}), from
 * each service class's minimal GPU-per-type vectors ({@link org.rampa.examples.bound.GpuCountOptions}).
 */
package org.rampa.examples.bound;
