/** A scheduler's module that embeds RAMPA: it reads the three library modules by name. */
module org.rampa.it.consumer {
  requires org.rampa.api;
  requires org.rampa.heuristics;
  // an automatic module (OR-Tools' native jars cannot be modules); "exact" is found through its provider
  requires org.rampa.solver;
}
