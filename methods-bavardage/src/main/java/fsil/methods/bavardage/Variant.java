package fsil.methods.bavardage;

/** The ablations of the paper's Table 2, selectable with the {@code variant} parameter. */
public enum Variant {
    /** Soft k-means initialisation, then n_step iterations of PLDA + variational Bayes (the full method). */
    BAVARDAGE("bavardage"),
    /**
     * Soft k-means initialisation, then variational Bayes on the preprocessed features without PLDA (no
     * whitening, no projection to K-1 dimensions).
     */
    VB_NO_PLDA("vb-no-plda"),
    /** Soft k-means only: its assignments are the output. */
    SOFTKMEANS("softkmeans");

    private final String id;

    Variant(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }
}
