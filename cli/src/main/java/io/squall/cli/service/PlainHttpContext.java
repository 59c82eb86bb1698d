package io.squall.cli.service;

import java.security.SecureRandom;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

/**
 * The TLS context of a client of a plain http service: one that refuses every use. HttpClient
 * insists on a context and otherwise makes the JDK's default one, whose set-up (security providers,
 * cipher suites, every CA in cacerts) was a third of a short verb's run; a plain http connection
 * never uses it.
 */
final class PlainHttpContext extends SSLContext {
  PlainHttpContext() {
    super(new Refusing(), null, "none");
  }

  private static final class Refusing extends SSLContextSpi {
    private static UnsupportedOperationException refused() {
      return new UnsupportedOperationException("this client speaks plain http only: no TLS context");
    }

    @Override
    protected void engineInit(KeyManager[] km, TrustManager[] tm, SecureRandom sr) {
      throw refused();
    }

    @Override
    protected SSLSocketFactory engineGetSocketFactory() {
      throw refused();
    }

    @Override
    protected SSLServerSocketFactory engineGetServerSocketFactory() {
      throw refused();
    }

    @Override
    protected SSLEngine engineCreateSSLEngine() {
      throw refused();
    }

    @Override
    protected SSLEngine engineCreateSSLEngine(String host, int port) {
      throw refused();
    }

    @Override
    protected SSLSessionContext engineGetServerSessionContext() {
      throw refused();
    }

    @Override
    protected SSLSessionContext engineGetClientSessionContext() {
      throw refused();
    }
  }
}
