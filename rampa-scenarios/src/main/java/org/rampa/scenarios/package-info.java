/**
 * ParvaGPU's six published SLO scenarios (SC'24, MIT) and its own deployments of them, as
 * co-location problems and plans, plus seeded mixes built from them: fixtures for the co-location
 * planners' tests and inputs to the experiments. Not part of the API jar, which ships to every
 * library user; this module is never deployed.
 */
package org.rampa.scenarios;
