/**
 * The performance model of docs/SPEC.md section 3: layer, stage and transfer times, period, throughput,
 * latency and stage memory of a placement. It predicts; it neither searches nor judges a plan (that
 * is {@code org.rampa.verify}).
 */
package org.rampa.perf;
