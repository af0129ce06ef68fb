/**
 * Small runnable examples of the library: the README's fluent-API example and a hand-written plan
 * checked by the performance model and the verifier. The CLI, the simulator and the experiment
 * live in the sub-packages.
 */
package org.rampa.examples;
