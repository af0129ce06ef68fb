/**
 * Immutable domain values: GPUs, nodes, links, clusters, models, SLOs, requests, plans and the
 * cluster ledger. Every value validates itself at construction and names the offending field,
 * value and rule in its error message.
 */
@ValueStyle
package org.rampa.domain;
