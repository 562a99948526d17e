package fsil.api;

/** What a session is created for; tells the method how {@link Session#learn} calls will arrive. */
public enum TaskKind {
    /** One {@link Session#learn} with the support set, then predictions for the query set. */
    FEWSHOT_EPISODE,
    /** Repeated {@link Session#learn} calls, one per experience, each followed by predictions on all seen classes. */
    CLASS_INCREMENTAL,
    /** Like {@link #CLASS_INCREMENTAL}; the first experience is the base session, later ones are few-shot. */
    FEWSHOT_CLASS_INCREMENTAL
}
