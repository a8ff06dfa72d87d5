// proxy-addr (Express' dependency) ships no types of its own; the two functions used here
declare module 'proxy-addr' {
  import type { IncomingMessage } from 'node:http';
  type Trust = (address: string, hop: number) => boolean;
  function proxyAddr(req: IncomingMessage, trust: Trust | string | string[]): string;
  namespace proxyAddr {
    function compile(trusted: string | string[]): Trust;
  }
  export default proxyAddr;
}
