package fsil.methods.lsgp;

/** Which evidence lower bound the mean-field code evaluates and differentiates (module README, ELBO). */
public enum ElboForm {
    /**
     * The bound in its general form (E1 + ... + E5 of the module README) at the current variational parameters: a true
     * lower bound on log p(y) for any tilt, with the Poisson KL's -alpha/beta counted once per class.
     */
    CORRECT,
    /**
     * The authors' code (methods/CDKT.py, loss = -ELBO): the -alpha/C term counted once per point instead of once
     * per class (so the value exceeds the correct ELBO by (1 - 1/C) sum_n alpha_n and is not a bound), and the
     * collapsed form with the tilt of the previous q(f) (the -1/2 theta (E[f^2]/tau^2 - c^2) term dropped).
     * Constants are those of {@link #CORRECT}.
     */
    AUTHORS
}
