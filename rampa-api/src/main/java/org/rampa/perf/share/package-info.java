/**
 * Stage time on part of a GPU (docs/SHARING.md sections 2 and 3). {@link org.rampa.perf.share.ShareTimeModel}
 * has three tiers: measured tables (ParvaGPU's MIG profiles, MuxServe's MPS table, a user's own),
 * the fitted law {@code t = A/s + C}, and the analytic roofline with a bandwidth fraction, MPS
 * bandwidth saturation and a share-independent floor. None of them divides a whole-GPU time by the
 * share. {@link org.rampa.perf.share.InterferenceModel} says how much co-runners slow a stage.
 */
package org.rampa.perf.share;
