/**
 * The offline upper bound on admissions: for one arrival trace, how many services any scheduler
 * could admit at most, knowing the future ({@link org.rampa.examples.bound.OfflineBound}), from
 * each service class's minimal GPU-per-type vectors ({@link org.rampa.examples.bound.GpuCountOptions}), or, for
 * schedulers that share GPUs, from each class's compute and memory footprints on parts of GPUs
 * ({@link org.rampa.examples.bound.SharedFootprints}).
 */
package org.rampa.examples.bound;
