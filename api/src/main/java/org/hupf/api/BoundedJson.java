package org.hupf.api;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads request bodies within limits before any tree is built: a size bound, then a streaming pass
 * that counts nesting. jackson-databind 2.11 (ONOS's) builds trees recursively without a depth limit,
 * so 100,000 nested {@code [} overflow the stack (CVE-2020-36518); the streaming parser does not
 * recurse, so the depth is checked before the tree exists.
 */
public final class BoundedJson {

    /** Largest request body accepted: a session with hundreds of rules fits in a few kilobytes. */
    public static final int MAX_BYTES = 1 << 20;
    /** Deepest nesting of arrays and objects accepted: hupf's JSON forms need fewer than 10 levels. */
    public static final int MAX_DEPTH = 32;

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** A body over the size limit (HTTP 413). */
    public static final class TooLarge extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        TooLarge(int maxBytes) {
            super("body exceeds " + maxBytes + " bytes");
        }
    }

    private BoundedJson() {
    }

    /**
     * Reads a whole body, refusing it past a size.
     *
     * @param in       body
     * @param maxBytes largest size accepted
     * @return the bytes
     * @throws TooLarge                 if the body is longer
     * @throws IllegalArgumentException if it cannot be read
     */
    public static byte[] readAtMost(InputStream in, int maxBytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        try {
            int n;
            while ((n = in.read(buf)) > 0) {
                if (out.size() + n > maxBytes) {
                    throw new TooLarge(maxBytes);
                }
                out.write(buf, 0, n);
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("body could not be read: " + e.getMessage());
        }
        return out.toByteArray();
    }

    /**
     * Reads a JSON body within {@link #MAX_BYTES} and {@link #MAX_DEPTH}.
     *
     * @param in body
     * @return the JSON tree
     * @throws TooLarge                 if the body is too long
     * @throws IllegalArgumentException if it is empty, not JSON, or nested too deep
     */
    public static JsonNode read(InputStream in) {
        return read(in, MAX_BYTES, MAX_DEPTH);
    }

    /**
     * Reads a JSON body within limits.
     *
     * @param in       body
     * @param maxBytes largest size accepted
     * @param maxDepth deepest nesting of arrays and objects accepted
     * @return the JSON tree
     * @throws TooLarge                 if the body is too long
     * @throws IllegalArgumentException if it is empty, not JSON, or nested too deep
     */
    public static JsonNode read(InputStream in, int maxBytes, int maxDepth) {
        byte[] body = readAtMost(in, maxBytes);
        try (JsonParser p = MAPPER.getFactory().createParser(body)) {
            int depth = 0;
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if (t.isStructStart() && ++depth > maxDepth) {
                    throw new IllegalArgumentException("body nested deeper than " + maxDepth + " levels");
                } else if (t.isStructEnd()) {
                    depth--;
                }
            }
            JsonNode tree = MAPPER.readTree(body);
            if (tree == null || tree.isMissingNode()) {
                throw new IllegalArgumentException("body is empty");
            }
            return tree;
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("body is not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new IllegalArgumentException("body could not be read: " + e.getMessage());
        }
    }
}
