/**
 * The splitting API: cut a chain of layers into contiguous stages over a given ordered sequence of
 * devices so that the pipeline period is least. Its input is a {@link org.rampa.split.LayerCostTable}
 * (per-layer time per device kind, per-cut transfer time, per-layer memory) so that it works on
 * models described by FLOPs and on imported profiles whose times were measured alike.
 */
package org.rampa.split;
