/**
 * What it costs to consume a GPU now: the {@link org.rampa.importance.ImportanceModel} interface,
 * the per-decision {@link org.rampa.importance.GpuCosts} and user-given static weights. The
 * forecast-driven models live in rampa-heuristics ({@code org.rampa.heuristics.importance}).
 */
package org.rampa.importance;
