/**
 * The one independent plan verifier: recomputes every plan from its layer ranges and GPU ids and
 * reports each violation (coverage, stages, GPUs, memory, SLO, conflicts with the cluster state,
 * predictions that disagree). It checks plans; it never builds or repairs one.
 */
package org.rampa.verify;
