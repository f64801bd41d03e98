import * as pulumi from "@pulumi/pulumi";

interface GreetingState {
  message: string;
  length: number;
}

const greetingProvider: pulumi.dynamic.ResourceProvider<{ message: string }, GreetingState> = {
  async diff(_id, olds, news) {
    return { changes: olds.message !== news.message };
  },
  async create(inputs) {
    return { id: `greeting-${inputs.message.length}`, outs: { message: inputs.message, length: inputs.message.length } };
  },
  async update(_id, _olds, news) {
    return { outs: { message: news.message, length: news.message.length } };
  },
  async delete() {},
};

class Greeting extends pulumi.dynamic.Resource {
  declare readonly message: pulumi.Output<string>;
  declare readonly length: pulumi.Output<number>;

  constructor(name: string, message: pulumi.Input<string>) {
    super(greetingProvider, name, { message, length: undefined }, {}, "test", "Greeting");
  }
}

// A stack without configuration greets with the default.
const greeting = new Greeting("hello", new pulumi.Config().get("message") ?? "hello");
export const length = greeting.length;
