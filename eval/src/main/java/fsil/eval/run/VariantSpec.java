package fsil.eval.run;

import fsil.api.FsilException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One method configuration of a run: a label shown in tables and plots, the method id and parameter values
 * (text, validated against the method later). Parsed from {@code ppca}, {@code ppca[q=0]},
 * {@code ppca[q=0,lambda=0.1]} or {@code rbf:ppca[q=0]} (explicit label).
 */
public record VariantSpec(String label, String method, Map<String, String> params) {

    public VariantSpec {
        params = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(params));
        if (label.isBlank() || label.chars().anyMatch(Character::isISOControl)) {
            throw new FsilException("method label '" + label + "' must be non-empty, without control characters");
        }
    }

    /** Parses a comma-separated list; commas inside brackets belong to the variant. */
    public static List<VariantSpec> parseList(String text) {
        List<String> parts;
        try {
            parts = fsil.api.PluginRef.splitList(text);
        } catch (FsilException e) {
            throw new FsilException("unbalanced brackets in method list '" + text + "'");
        }
        List<VariantSpec> out = new ArrayList<>();
        for (String part : parts) {
            out.add(parse(part));
        }
        if (out.isEmpty()) {
            throw new FsilException("no method given: use e.g. --methods ncm,ppca[q=0]");
        }
        return out;
    }

    public static VariantSpec parse(String text) {
        String t = text.trim();
        String label = null;
        int colon = t.indexOf(':');
        int bracket = t.indexOf('[');
        if (colon > 0 && (bracket < 0 || colon < bracket)) {
            label = t.substring(0, colon).trim();
            t = t.substring(colon + 1).trim();
            bracket = t.indexOf('[');
        }
        String id = bracket < 0 ? t : t.substring(0, bracket).trim();
        Map<String, String> params = new LinkedHashMap<>();
        if (bracket >= 0) {
            if (!t.endsWith("]")) {
                throw new FsilException("method variant '" + text + "' must end with ']' , e.g. ppca[q=0]");
            }
            String inner = t.substring(bracket + 1, t.length() - 1);
            for (String kv : inner.split("[,;]")) {
                if (kv.isBlank()) {
                    continue;
                }
                int eq = kv.indexOf('=');
                if (eq <= 0) {
                    throw new FsilException("parameter '" + kv.trim() + "' in '" + text + "' must look like name=value");
                }
                params.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
            }
        }
        if (id.isEmpty()) {
            throw new FsilException("empty method id in '" + text + "'");
        }
        String plain = params.isEmpty() ? id : id + "[" + String.join(",", params.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).toList()) + "]";
        return new VariantSpec(label == null ? plain : label, id, params);
    }

    /** The text {@link #parse} reads back: {@code label:id[k=v,...]}, the label left out when it is the default. */
    public String text() {
        String params = this.params.isEmpty() ? "" : "[" + String.join(",", this.params.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).toList()) + "]";
        String plain = method + params;
        return label.equals(plain) ? plain : label + ":" + plain;
    }

    /** A copy with more parameter values (later values win). */
    public VariantSpec withParams(Map<String, String> more) {
        Map<String, String> p = new LinkedHashMap<>(params);
        p.putAll(more);
        return new VariantSpec(label, method, p);
    }
}
