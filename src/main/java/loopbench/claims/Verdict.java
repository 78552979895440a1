package loopbench.claims;

/**
 * What the measurements say about a claim. The first four are verdicts; {@link #MISSING} means the results a
 * verdict needs are not in the input (the report names the profile line that produces them).
 */
public enum Verdict {
    /** Every decisive check's 95% interval lies inside the region the claim predicts. */
    CONFIRMED("CONFIRMED"),
    /** A decisive check's interval lies outside the claimed region (Holm-corrected over the claim's checks). */
    REFUTED("REFUTED"),
    /** The intervals straddle the claimed region's boundary: the effect is inside the noise. */
    INCONCLUSIVE("INCONCLUSIVE"),
    /** This machine cannot produce the conditions the claim is about; the reason says what would. */
    NOT_TESTABLE_HERE("NOT-TESTABLE-HERE"),
    /** A result a decisive check needs is not in the input. */
    MISSING("MISSING");

    private final String label;

    Verdict(String label) {
        this.label = label;
    }

    /** How the report writes it. */
    public String label() {
        return label;
    }
}
