// `npm run sim`: the simulated device fleet. Not built yet (issue "The simulated device fleet"); says so plainly.
console.log('sentra sim: not yet — the simulated fleet arrives with the simulator issue. Arguments received:', process.argv.slice(2).join(' ') || '(none)');
