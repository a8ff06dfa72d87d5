// zod's settings for the console, imported first by main.tsx: schemas read them when they are made, so this module
// must run before any schema module (contracts included).
//
// jitless: zod compiles a fast path (new Function) for every object schema at its first parse. The console parses most
// schemas once or a few times (a card's view config, a filter variable, a form), where compiling costs more than it
// saves: the 44 card types' configs parse in 4–9 ms without it, 16–24 ms with it (first parse, Node 20, this machine),
// and on the dashboard view that time sits between the dashboard's record and its first values.
import { z } from 'zod';

z.config({ jitless: true });
